import type { DbTx } from "../db/client.ts";
import { InvalidInputError } from "../errors.ts";
import type { UpdateEndpointInput } from "./schemas.ts";

/**
 * The endpoints an endpoint's fallbacks and request classes send calls to must exist, be in
 * service and not be the endpoint itself. (Keys and regions are checked per call at the gateway:
 * a target a caller's key may not use, or outside the named endpoint's region rule, is skipped.)
 */
export async function checkRoutingTargets(tx: DbTx, id: string, input: Pick<UpdateEndpointInput, "fallbackEndpointIds" | "requestClasses">) {
  const wanted = [
    ...(input.fallbackEndpointIds ?? []).map((target, i) => ({ field: "fallbackEndpointIds", what: `Fallback ${i + 1}`, target })),
    ...(input.requestClasses ?? []).map((c) => ({ field: "requestClasses", what: `Class ${c.name}`, target: c.endpointId })),
  ];
  if (!wanted.length) return;
  const found = await tx.endpoint.findMany({ where: { id: { in: wanted.map((w) => w.target) }, retiredAt: null }, select: { id: true } });
  const live = new Set(found.map((e) => e.id));
  for (const w of wanted) {
    if (w.target === id) throw new InvalidInputError(w.field, `${w.what}: an endpoint cannot send calls on to itself; choose another endpoint.`);
    if (!live.has(w.target)) throw new InvalidInputError(w.field, `${w.what}: no endpoint in service has this id; choose one from the list (retired endpoints cannot take calls).`);
  }
  const names = new Set<string>();
  (input.requestClasses ?? []).forEach((c) => {
    if (names.has(c.name)) throw new InvalidInputError("requestClasses", `Class ${c.name} is named twice: give each class its own name.`);
    names.add(c.name);
  });
}
