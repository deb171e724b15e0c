/**
 * The simulator's tokenizer, a documented rule rather than a real BPE vocabulary:
 *
 *   a token is a maximal run of letters and digits, or any single other non-space character;
 *   whitespace belongs to no token.
 *
 * So "Merhaba, dünya!" is 4 tokens (Merhaba , dünya !). Prompt tokens are the sum over message
 * contents; completion tokens are counted on the text the simulator returns, so usage always
 * matches the answer a client sees.
 */
const TOKEN = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;

/** The tokens of a text, by the rule above. */
export function tokensOf(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function countTokens(text: string): number {
  let n = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(text)) n++;
  return n;
}

const WORDS = (
  "the cluster serves models across nodes and each replica answers requests with tokens while the gateway " +
  "routes traffic between versions so operators can watch latency error budgets and cost per tenant in Turkey"
).split(" ");

/**
 * Deterministic filler text of exactly `tokens` tokens (by the rule above), as a sequence of
 * pieces, one per token, so a stream can send them one at a time. Every 12th token is a full stop.
 */
export function generatePieces(tokens: number, seed: number): string[] {
  const pieces: string[] = [];
  let s = seed >>> 0;
  for (let i = 0; i < tokens; i++) {
    if (i % 12 === 11) {
      pieces.push(".");
      continue;
    }
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const word = WORDS[s % WORDS.length]!;
    pieces.push(i === 0 ? word[0]!.toUpperCase() + word.slice(1) : ` ${word}`);
  }
  return pieces;
}

/** A stable 32-bit seed from text, so the same prompt gets the same answer. */
export function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
