import { createHash } from "node:crypto";
import { tokensOf } from "./tokens.ts";

/** vLLM's KV block (--block-size, 16 by default): prefix caching reuses whole blocks of this many tokens. */
export const KV_BLOCK_TOKENS = 16;
const BLOCK = KV_BLOCK_TOKENS;

/**
 * vLLM's automatic prefix caching, as the simulator plays it: a prompt's full blocks of tokens
 * are hashed in a chain (a block's hash covers everything before it), and a new prompt reuses
 * the leading blocks some earlier prompt already computed. The last prompt token is always
 * computed, as in vLLM. Holds at most `capacity` blocks — the replica's KV-cache memory in blocks
 * (vLLM's num_gpu_blocks) — and forgets the least recently used past that, as vLLM evicts free
 * blocks. (vLLM also keeps the blocks of running sequences; the simulator counts the whole pool.)
 * The blocks' hashes come back too: running sequences that share a block hold it once in the KV
 * cache (engine.ts), as vLLM's paged attention shares them.
 */
export class PrefixCache {
  private blocks = new Map<string, true>();

  constructor(private readonly capacity = 50_000) {}

  /**
   * Tokens of `prompt` served from the cache; the prompt's blocks are cached from now on. A
   * `salt` (the request's cache_salt) goes into the first block's hash, and so into every later
   * one's, as vLLM does: prompts with different salts share no block.
   */
  lookup(prompt: string, salt?: string): { promptTokens: number; cachedTokens: number; blocks: string[] } {
    const tokens = tokensOf(prompt);
    const blocks: string[] = [];
    let hash = salt === undefined ? "" : createHash("sha1").update("cache_salt\u0000").update(salt).digest("base64");
    let hits = 0;
    let stillHitting = true;
    for (let i = 0; i + BLOCK <= tokens.length; i += BLOCK) {
      hash = createHash("sha1").update(hash).update("\u0000").update(tokens.slice(i, i + BLOCK).join("\u0001")).digest("base64");
      blocks.push(hash);
      if (stillHitting && this.blocks.has(hash)) hits += BLOCK;
      else stillHitting = false;
      this.blocks.delete(hash); // re-inserted as the most recently used
      this.blocks.set(hash, true);
    }
    while (this.blocks.size > this.capacity) this.blocks.delete(this.blocks.keys().next().value!);
    return { promptTokens: tokens.length, cachedTokens: Math.min(hits, Math.max(0, tokens.length - 1)), blocks };
  }
}
