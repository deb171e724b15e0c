import { createHash } from "node:crypto";

/**
 * The standard ring the e2e app and gateway hold: v1 current from the start, v2 held and not yet
 * current, so the keys spec rotates as an operator would after adding a key to every process.
 * Test keys only, derived from a label so nothing secret is written down.
 */
const secret = (label: string) => createHash("sha256").update(`kule e2e subject key ${label}`).digest("base64url");

export const E2E_SUBJECT_KEYS = { v1: secret("v1"), v2: secret("v2") } as const;
export const E2E_STANDARD_RING = `v1:${E2E_SUBJECT_KEYS.v1},v2:${E2E_SUBJECT_KEYS.v2}`;
