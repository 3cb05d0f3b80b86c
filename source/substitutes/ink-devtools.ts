// Stands in for ink's devtools.js in the bundle (scripts/build.mjs): ink loads it only when DEV=true, to
// connect React DevTools through react-devtools-core, which is not installed. pleg-top never connects.
export {};
