import type { ActorContext } from "../auth/actor.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import type { DbTx } from "../db/client.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { kvBytesPerToken, MIN_KV_TOKENS, type ModelMemory } from "../shared/memory-rule.ts";
import { freeDevices, freeNodes, modelMemory } from "../cluster/placement.ts";
import { chooseGroup } from "../cluster/group-placement.ts";
import { EFFICIENCY, GPU_SPECS, specFor } from "./hardware.ts";
import { MAX_BATCH, P99_OVER_MEAN, planCandidates, type Candidate, type Fleet } from "./plan.ts";
import { layersOf } from "./roofline.ts";
import type { PlanInput } from "./schemas.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translateServerMessage } from "../shared/i18n/server-messages.ts";

const BYTES_PER_PARAM = { fp32: 4, bf16: 2, fp16: 2, fp8: 1, int8: 1, int4: 0.5 } as const;

/** A registered version's memory as the planner sizes it: its card, without the served context (the forecast says that). */
export const versionMemory = (mv: Parameters<typeof modelMemory>[0]): ModelMemory => ({ ...modelMemory(mv, "llm"), kvTokens: undefined });

/** What the roofline reads of a model: parameters, weight bytes, FP8 or not, KV bytes a token. */
export const workloadOf = (memory: ModelMemory, fp8: boolean) => ({ parameterCount: memory.parameterCount, weightBytes: memory.weightBytes, fp8, kvBytesPerToken: kvBytesPerToken(memory.parameterCount, memory.attention), layers: layersOf(memory.parameterCount, memory.attention?.layers) });

/** The model as the planner sizes it: from a registered version or a card. */
async function modelOf(db: PrismaClient | DbTx, input: PlanInput) {
  if (input.modelVersionId) {
    const mv = await db.modelVersion.findUnique({ where: { id: input.modelVersionId }, include: { model: true } });
    if (!mv) throw new NotFoundError("Model version");
    if (mv.model.task !== "llm") throw new InvalidInputError("modelVersionId", `the planner sizes language models; ${mv.model.name} is a ${mv.model.task} model`);
    const memory = versionMemory(mv);
    const endpoints = await db.endpoint.findMany({ where: { modelId: mv.modelId, retiredAt: null }, select: { id: true, name: true } });
    return { label: `${mv.model.name} ${mv.version} (${mv.precision})`, memory, fp8: mv.precision === "fp8", cardKnown: !!memory.attention, endpoints, modelVersionId: mv.id };
  }
  const c = input.card!;
  const weightBytes = c.parameterCount * BYTES_PER_PARAM[c.precision];
  const memory: ModelMemory = { weightBytes, parameterCount: c.parameterCount, task: "llm", attention: { layers: c.layers, kvHeads: c.kvHeads, headDim: c.headDim } };
  return { label: `${(c.parameterCount / 1e9).toFixed(1)}B (${c.precision})`, memory, fp8: c.precision === "fp8", cardKnown: true, endpoints: [], modelVersionId: null };
}

/** The GPU kinds the fleet has, with their hardware rate (the latest in force) and the planner's datasheet for each. */
async function fleetsOf(db: PrismaClient | DbTx) {
  const [gpus, rates] = await Promise.all([db.gpu.findMany({ select: { modelName: true, nodeId: true } }), db.hardwareRate.findMany({ where: { kind: "gpu", effectiveFrom: { lte: new Date() } }, orderBy: { effectiveFrom: "desc" } })]);
  const byModel = new Map<string, Map<string, number>>();
  for (const g of gpus) {
    const nodes = byModel.get(g.modelName) ?? new Map<string, number>();
    nodes.set(g.nodeId, (nodes.get(g.nodeId) ?? 0) + 1);
    byModel.set(g.modelName, nodes);
  }
  const fleets: Fleet[] = [];
  const unknown: string[] = [];
  for (const [modelName, nodes] of byModel) {
    const spec = specFor(modelName);
    if (!spec) {
      unknown.push(modelName);
      continue;
    }
    const rate = rates.find((r) => r.key === modelName);
    fleets.push({ spec, modelName, gpusPerNode: Math.max(...nodes.values()), nodes: nodes.size, perHour: rate ? Number(rate.perHour) : null });
  }
  return { fleets, unknown };
}

/**
 * Does the plan fit the fleet now? Its replicas laid onto today's free whole GPUs (the group
 * placement rules) or free MIG instances of its profile, across every pool of that GPU kind.
 */
async function fitsNow(db: PrismaClient | DbTx, c: Candidate): Promise<{ fits: boolean; placed: number; text: string }> {
  const pools = await db.nodePool.findMany({ where: { nodes: { some: { gpus: { some: { modelName: c.gpu } } } } }, select: { id: true, name: true } });
  let placed = 0;
  let why = "no pool has this GPU kind";
  const mig = /MIG (\S+)$/.exec(c.device)?.[1];
  for (const pool of pools) {
    if (mig) {
      const free = (await freeDevices(db, { nodePoolId: pool.id, regionConstraint: null }, c.needBytesPerGpu)).filter((d) => d.label.includes(` ${mig}@`));
      placed += Math.min(free.length, c.replicas - placed);
      why = `pool ${pool.name} has ${free.length} free ${mig} instance(s)`;
    } else {
      let nodes = await freeNodes(db, { nodePoolId: pool.id, regionConstraint: null });
      while (placed < c.replicas) {
        const g = chooseGroup(nodes, c.split, c.needBytesPerGpu);
        if (!g.ok) {
          why = `pool ${pool.name}: ${g.shortfall}`;
          break;
        }
        const taken = new Set(g.stages.flatMap((s) => s.gpus.map((x) => x.id)));
        nodes = nodes.map((n) => ({ ...n, free: n.free.filter((x) => !taken.has(x.id)) }));
        placed++;
      }
    }
    if (placed >= c.replicas) break;
  }
  return placed >= c.replicas ? { fits: true, placed, text: `all ${c.replicas} replica(s) fit on free GPUs now` } : { fits: false, placed, text: `${placed} of ${c.replicas} replica(s) fit now: ${why}` };
}

/** The capacity plan: every candidate ranked, the best few checked against the fleet as it is now. */
export async function planCapacity({ db, locale }: ActorContext & { locale?: Locale }, input: PlanInput) {
  const model = await modelOf(db, input);
  const { fleets, unknown } = await fleetsOf(db);
  const forecast = { ...input.forecast, hourly: input.forecast.hourly ?? Array<number>(24).fill(1) };
  const workload = workloadOf(model.memory, model.fp8);
  const candidates = planCandidates({ ...model.memory, attention: model.memory.attention ?? null }, workload, fleets, forecast, input.slo, input.energy);
  const best = candidates.filter((c) => !c.refused).slice(0, 3);
  const tr = (text: string) => (locale && locale !== "en" ? translateServerMessage(locale, text) : text);
  const now = await Promise.all(best.map((c) => fitsNow(db, c)));
  return {
    model: { label: model.label, weightBytes: model.memory.weightBytes, kvBytesPerToken: workload.kvBytesPerToken, cardKnown: model.cardKnown, modelVersionId: model.modelVersionId, endpoints: model.endpoints, minKvTokens: MIN_KV_TOKENS },
    // Kule words its refusals and fits in English (as it stores them); the page reads them in its language.
    candidates: candidates.map((c, i) => {
      const fit = i < best.length && !c.refused ? now[i]! : null;
      return { ...c, rank: i + 1, refused: c.refused && tr(c.refused), fitsNow: fit && { ...fit, text: tr(fit.text) } };
    }),
    unknownGpus: unknown,
    assumptions: { efficiency: EFFICIENCY, p99OverMean: P99_OVER_MEAN, maxBatch: MAX_BATCH, gpus: GPU_SPECS.filter((s) => fleets.some((f) => f.spec === s)).map((s) => ({ name: s.name, source: s.source })) },
  };
}
