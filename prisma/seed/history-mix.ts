/**
 * Who called what in the demo's history, and what went wrong when: calls per hour at the daily
 * peak for each tenant × endpoint (the day shape scales them down at night and on weekends), and
 * the incidents the SLA and call-log pages show.
 */
export interface MixEntry {
  tenant: string;
  endpoint: string;
  /** What the calls look like (tokens, latency): chat, embed or vision. */
  kind: "chat" | "embed" | "vision";
  perPeakHour: number;
}

export const HISTORY_MIX: MixEntry[] = [
  { tenant: "anadolu-bank", endpoint: "chat", kind: "chat", perPeakHour: 120 },
  { tenant: "anadolu-bank", endpoint: "embed", kind: "embed", perPeakHour: 85 },
  { tenant: "anadolu-bank", endpoint: "vision-detect", kind: "vision", perPeakHour: 15 },
  { tenant: "bogazici-retail", endpoint: "chat", kind: "chat", perPeakHour: 50 },
  { tenant: "bogazici-retail", endpoint: "embed", kind: "embed", perPeakHour: 35 },
  { tenant: "bogazici-retail", endpoint: "vision-detect", kind: "vision", perPeakHour: 75 },
  { tenant: "ege-health", endpoint: "chat", kind: "chat", perPeakHour: 25 },
  { tenant: "ege-health", endpoint: "embed", kind: "embed", perPeakHour: 15 },
  { tenant: "ege-health", endpoint: "vision-detect", kind: "vision", perPeakHour: 10 },
];

export interface Incident {
  what: string;
  kind: MixEntry["kind"];
  /** Days before the last seeded day, and the UTC hour it began. */
  daysAgo: number;
  utcHour: number;
  hours: number;
  /** Share of calls refused with 503 (no ready replica) while it lasts. */
  errorRate: number;
  /** Latency (and time to first token) multiplied by this while it lasts. */
  latencyFactor: number;
}

export const INCIDENTS: Incident[] = [
  { what: "chat replicas lost with a GPU node (error burst)", kind: "chat", daysAgo: 61, utcHour: 8, hours: 3, errorRate: 0.22, latencyFactor: 1.3 },
  { what: "vision latency spike after a driver update", kind: "vision", daysAgo: 34, utcHour: 11, hours: 5, errorRate: 0.01, latencyFactor: 4 },
  { what: "embeddings overloaded (errors and slow answers)", kind: "embed", daysAgo: 12, utcHour: 7, hours: 2, errorRate: 0.12, latencyFactor: 3 },
];
