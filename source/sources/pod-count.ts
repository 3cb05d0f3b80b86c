// How many pods the node holds, for the eviction horizon: GET /api/v1/pods?fieldSelector=spec.nodeName=NODE as
// metadata only (PartialObjectMetadataList: no specs or statuses), a page of at most 500 at a time, only the count
// kept. A selector leaves the list's remainingItemCount unset, so the pages are counted. Every string in the answer
// is the cluster's: nothing of it is kept but the number of items and the continue token.
import * as v from 'valibot';
import {continueOf, listMeta, readJson} from './json-boundary.js';

/** Accept header: metadata-only items where the API server supports it (1.15+), plain JSON otherwise. */
export const podListAccept = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/** Pages read at most: 10 × 500 pods, far past a kubelet's --max-pods (110 by default). */
export const maxPodPages = 10;

export function podListPath(node: string, continueToken: string | null): string {
	const selector = encodeURIComponent(`spec.nodeName=${node}`);
	return `/api/v1/pods?fieldSelector=${selector}&limit=500${continueToken === null ? '' : `&continue=${encodeURIComponent(continueToken)}`}`;
}

/** A pod list page: the items are only counted, so any item will do. */
const podPageSchema = v.object({items: v.array(v.unknown()), metadata: listMeta});

/** One page: its item count and the token for the next one (null on the last). Throws MalformedJsonError when it is no list. */
export function podPageFromJson(body: string): {items: number; continueToken: string | null} {
	const page = readJson(podPageSchema, body);
	return {items: page.items.length, continueToken: continueOf(page.metadata)};
}
