// The age of an Event as kubectl prints it under Events (apimachinery's duration.HumanDuration): whole seconds up
// to two minutes, then minutes and seconds up to ten, then coarser, so `pleg-top` and `kubectl describe node` agree.

/** "45s", "2m", "3m12s", "47m", "5h10m", "30h", "3d4h", "400d", "2y30d", "9y"; null prints as "—". */
export function humanAge(seconds: number | null): string {
	if (seconds === null || !Number.isFinite(seconds)) {
		return '—';
	}

	const whole = Math.max(0, Math.floor(seconds));
	if (whole < 120) {
		return `${whole}s`;
	}

	const minutes = Math.floor(whole / 60);
	if (minutes < 10) {
		const rest = whole % 60;
		return rest === 0 ? `${minutes}m` : `${minutes}m${rest}s`;
	}

	if (minutes < 180) {
		return `${minutes}m`;
	}

	const hours = Math.floor(whole / 3600);
	if (hours < 8) {
		const rest = minutes % 60;
		return rest === 0 ? `${hours}h` : `${hours}h${rest}m`;
	}

	if (hours < 48) {
		return `${hours}h`;
	}

	const days = Math.floor(hours / 24);
	if (hours < 24 * 8) {
		const rest = hours % 24;
		return rest === 0 ? `${days}d` : `${days}d${rest}h`;
	}

	if (hours < 24 * 365 * 2) {
		return `${days}d`;
	}

	const years = Math.floor(days / 365);
	if (hours < 24 * 365 * 8) {
		const rest = days % 365;
		return rest === 0 ? `${years}y` : `${years}y${rest}d`;
	}

	return `${years}y`;
}
