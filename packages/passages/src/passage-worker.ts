/**
 * A worker thread of {@link selectPassagesAside} (`aside.ts`): selects the passages of each
 * request it is sent.
 */
import { type Passage, type PassageRequest, selectPassages } from './passages.js';

export default function select(requests: readonly PassageRequest[]): Passage[][] {
  return requests.map(selectPassages);
}
