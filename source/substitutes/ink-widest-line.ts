// Stands in for widest-line where ink draws a <Text> (render-node-to-output.js, scripts/build.mjs). ink measures
// every text again on every frame to decide whether to wrap it, though yoga measured the same string when it laid
// the text out: 0.11 ms a frame for rows that mostly did not change. The width comes from the measure cache
// (ink-measure-text.ts), which computes it with widest-line itself.
import measureText from './ink-measure-text.js';

export default function widestLine(text: string): number {
	return measureText(text).width;
}
