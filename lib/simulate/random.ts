/**
 * Seeded pseudorandom numbers for the dry run's Monte Carlo mode: same seed, same
 * sequence, on every machine and in browser and Node alike.
 *
 * Generator: xoroshiro128+ from pure-rand, with uniformFloat64 for 53-bit floats.
 * The generator is NOT created with pure-rand's `xoroshiro128plus(seed)`: that
 * seeds the 128-bit state as (-1, ~seed, seed, 0), so the first draws of small
 * seeds are nearly identical (the first float is ≈ 1.0 for seeds 0, 1, 2, 42...).
 * Instead the four state words come from splitmix32 applied to the seed, which
 * gives unrelated streams for neighbouring seeds from the very first draw.
 */

import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';

/** splitmix32 step: returns the next well-mixed 32-bit word of the sequence started at `state`. */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) | 0;
}

/**
 * Returns a generator of uniform floats in [0, 1), fully determined by `seed`.
 * The seed must be an integer; only its low 32 bits are used.
 */
export function seededRandom(seed: number): () => number {
  if (!Number.isInteger(seed)) {
    throw new Error(`seededRandom: seed must be an integer, got ${String(seed)}`);
  }
  const mix = { s: seed | 0 };
  const state = [splitmix32(mix), splitmix32(mix), splitmix32(mix), splitmix32(mix)];
  // xoroshiro128+ must not start from the all-zero state (it would stay there).
  if ((state[0]! | state[1]! | state[2]! | state[3]!) === 0) state[0] = 1;
  const rng = xoroshiro128plusFromState(state);
  return () => uniformFloat64(rng);
}
