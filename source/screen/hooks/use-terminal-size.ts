// The terminal's size, following resizes; the listener is removed on unmount.
import {useStdout} from 'ink';
import {useEffect, useState} from 'react';

export type TerminalSize = {columns: number; rows: number};

export function useTerminalSize(fallback: TerminalSize = {columns: 100, rows: 30}): TerminalSize {
	const {stdout} = useStdout();
	const read = (): TerminalSize => ({
		columns: stdout.columns || fallback.columns,
		rows: stdout.rows || fallback.rows,
	});
	const [size, setSize] = useState(read);

	useEffect(() => {
		const onResize = () => {
			setSize(read());
		};

		stdout.on('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [stdout]);

	return size;
}
