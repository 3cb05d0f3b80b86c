// Stands in for string-width where ink and its helpers measure text (scripts/build.mjs): the same widths at a
// twentieth of the cost (source/domain/text-width.ts says why), and the same function the panes fit rows with.
export {default} from '../domain/text-width.js';
