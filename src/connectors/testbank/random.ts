/**
 * Deterministic randomness for the test bank: everything it generates is a pure function of a seed and
 * the keys below (institution, profile, account, month, ...). Never Math.random.
 */

/** 32-bit FNV-1a hash of a string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mixes 32-bit words into one well-spread 32-bit word (murmur3 finaliser over a running combination). */
export function mix(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** A key made of strings and integers, hashed to 32 bits. */
export function seedOf(...parts: (string | number)[]): number {
  return mix(...parts.map((p) => (typeof p === 'number' ? p : hashString(p))));
}

/** A uniform number in [0, 1) from a hash key. */
export function unitOf(...parts: (string | number)[]): number {
  return seedOf(...parts) / 4294967296;
}

/** A uniform number in [-1, 1) from a hash key: the noise term of balance targets. */
export function noiseOf(...parts: (string | number)[]): number {
  return unitOf(...parts) * 2 - 1;
}

/** sfc32, a small fast generator with a 128-bit state; seeded through splitmix32. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 8; i++) this.uint32();
  }

  static of(...parts: (string | number)[]): Random {
    return new Random(seedOf(...parts));
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight; `weights` are the cumulative weights of `items` (see cumulative()). */
  pickWeighted<T>(items: readonly T[], cumulativeWeights: readonly number[]): T {
    const total = cumulativeWeights[cumulativeWeights.length - 1] ?? 0;
    const target = this.next() * total;
    let lo = 0;
    let hi = cumulativeWeights.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulativeWeights[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return items[lo] as T;
  }

  /** A right-skewed amount in [min, max]: most draws are small, a few are large, like real receipts. */
  skewed(min: number, max: number): number {
    const u = this.next();
    return min + (max - min) * u * u;
  }
}

/** Running sums of weights, for Random.pickWeighted. */
export function cumulative(weights: readonly number[]): number[] {
  const out: number[] = [];
  let sum = 0;
  for (const w of weights) {
    sum += w;
    out.push(sum);
  }
  return out;
}
