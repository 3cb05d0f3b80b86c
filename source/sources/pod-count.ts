// How many pods the node holds, for the eviction horizon: GET /api/v1/pods?fieldSelector=spec.nodeName=NODE as
// metadata only (PartialObjectMetadataList: no specs or statuses), a page of at most 500 at a time, only the count
// kept. A selector leaves the list's remainingItemCount unset, so the pages are counted. Every string in the answer
// is the cluster's: nothing of it is kept but the number of items and the continue token.

/** Accept header: metadata-only items where the API server supports it (1.15+), plain JSON otherwise. */
export const podListAccept = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/** Pages read at most: 10 × 500 pods, far past a kubelet's --max-pods (110 by default). */
export const maxPodPages = 10;

export function podListPath(node: string, continueToken: string | null): string {
	const selector = encodeURIComponent(`spec.nodeName=${node}`);
	return `/api/v1/pods?fieldSelector=${selector}&limit=500${continueToken === null ? '' : `&continue=${encodeURIComponent(continueToken)}`}`;
}

/** One page: its item count and the token for the next one (null on the last). Throws when it is no list. */
export function podPageFromJson(body: string): {items: number; continueToken: string | null} {
	const value = JSON.parse(body) as {items?: unknown; metadata?: {continue?: unknown}};
	if (!Array.isArray(value.items)) throw new Error('no items');
	const token = value.metadata?.continue;
	return {items: value.items.length, continueToken: typeof token === 'string' && token !== '' ? token : null};
}
