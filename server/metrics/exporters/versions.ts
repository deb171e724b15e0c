/**
 * The exporter versions Kule reads, each proved against a recorded page of that version
 * (fixtures/, served to a real Prometheus in exporter-formats.cluster.test.ts), and the ones the
 * simulator can imitate (KULE_SIM_EXPORTERS, KULE_SIM_VLLM_VERSION, KULE_SIM_DCGM_EXPORTER_VERSION).
 *
 * - vLLM 0.30.0: V1 names only (kv_cache_usage_perc, inter_token_latency_seconds, prefix_cache_*).
 * - vLLM 0.10.2: the last release with the V0-era names, printed beside the new ones
 *   (gpu_cache_usage_perc, time_per_output_token_seconds, gpu_prefix_cache_*). Older releases
 *   (0.8–0.9.1) have only the old names; Kule's queries fall back to them.
 * - dcgm-exporter 4.6.0-4.8.3: `hostname`; 4.5.3-4.8.2: `Hostname` (renamed by NVIDIA/dcgm-exporter#655).
 * - Triton 2.68.0 (NGC 26.04): the shape of every release since 24.07 (failures carry `reason`).
 */
export const VLLM_VERSIONS = ["0.30.0", "0.10.2"] as const;
export const DCGM_EXPORTER_VERSIONS = ["4.6.0-4.8.3", "4.5.3-4.8.2"] as const;
export const TRITON_VERSIONS = ["2.68.0"] as const;

export type VllmVersion = (typeof VLLM_VERSIONS)[number];
export type DcgmExporterVersion = (typeof DCGM_EXPORTER_VERSIONS)[number];
export type TritonVersion = (typeof TRITON_VERSIONS)[number];

export interface ExporterVersions {
  vllm: VllmVersion;
  dcgm: DcgmExporterVersion;
  triton: TritonVersion;
}

/** The newest and the oldest versions Kule supports, as one setting. */
export const EXPORTER_PROFILES = {
  newest: { vllm: "0.30.0", dcgm: "4.6.0-4.8.3", triton: "2.68.0" },
  oldest: { vllm: "0.10.2", dcgm: "4.5.3-4.8.2", triton: "2.68.0" },
} as const satisfies Record<string, ExporterVersions>;

export type ExporterProfile = keyof typeof EXPORTER_PROFILES;

/** vLLM before 0.11 still prints the V0-era names (deprecated in 0.9.2–0.11, removed in 0.12). */
export const vllmHasLegacyNames = (v: VllmVersion) => v === "0.10.2";

/** dcgm-exporter's host label: `hostname` from 4.6.0-4.8.3 on, `Hostname` before. */
export const dcgmHostLabel = (v: DcgmExporterVersion) => (v === "4.6.0-4.8.3" ? "hostname" : "Hostname");

/** The versions a setting names: a profile, with one exporter's version overridden where given. */
export function exporterVersions(profile: ExporterProfile, overrides: { vllm?: VllmVersion; dcgm?: DcgmExporterVersion } = {}): ExporterVersions {
  return { ...EXPORTER_PROFILES[profile], ...(overrides.vllm ? { vllm: overrides.vllm } : {}), ...(overrides.dcgm ? { dcgm: overrides.dcgm } : {}) };
}
