// Sample values as the kubelet writes them (Go's strconv.FormatFloat): shared by the library path and the line reader.

/**
 * A Prometheus sample value as Go's strconv.ParseFloat reads it ("1.67195e+06", "+Inf", "NaN");
 * undefined when it is not a number. Number() alone would read "" as 0 and "+Inf" as NaN.
 */
export function parseValue(text: string): number | undefined {
	// The common case first: ~150 values are read per scrape.
	if (decimal.test(text)) {
		return Number(text);
	}

	if (/^[+-]?inf(?:inity)?$/i.test(text)) {
		return text.startsWith('-') ? -Infinity : Infinity;
	}

	if (/^[+-]?nan$/i.test(text)) {
		return Number.NaN;
	}

	return undefined;
}

const decimal = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
