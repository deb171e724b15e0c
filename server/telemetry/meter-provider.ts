import { ValueType, type Attributes } from "@opentelemetry/api";
import { hrTime } from "@opentelemetry/core";
import { emptyResource, resourceFromAttributes } from "@opentelemetry/resources";
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type CollectionResult,
  type DataPoint,
  type Histogram,
  type HistogramMetricData,
  type MetricProducer,
  type PushMetricExporter,
} from "@opentelemetry/sdk-metrics";
import { otlpMetricExporter, type OtlpProtocol } from "./otlp-exporters.ts";

/** Series a histogram keeps before the rest are counted together (as the SDK's own cardinality limit does). */
const MAX_SERIES = 2000;
const OVERFLOW: Attributes = { "otel.metric.overflow": true };

interface Series {
  attributes: Attributes;
  start: [number, number];
  counts: number[];
  count: number;
  sum: number;
  min: number;
  max: number;
}

/**
 * A cumulative histogram recorded in place: a lookup by a key the caller already has (a few
 * strings joined) and a bucket count. The SDK's own instruments hash every measurement's
 * attributes (a sort and a JSON.stringify, a few µs each): on the gateway's hot path, per call,
 * that was more than the rest of its metrics together. Exported by HistogramProducer with the
 * SDK's reader, in the background.
 */
export class InPlaceHistogram {
  private readonly series = new Map<string, Series>();

  constructor(readonly spec: { name: string; description: string; unit: string; boundaries: readonly number[]; valueType?: ValueType }) {}

  /**
   * Records `value` in the series `key` names, if that series exists; false if not, and then the
   * caller starts it with `start` (so attributes are built once per series, not once per call).
   */
  record(key: string, value: number): boolean {
    const s = this.series.get(key);
    if (!s) return false;
    const b = this.spec.boundaries;
    let i = 0;
    while (i < b.length && value > b[i]!) i++;
    s.counts[i]!++;
    s.count++;
    s.sum += value;
    if (value < s.min) s.min = value;
    if (value > s.max) s.max = value;
    return true;
  }

  /** Starts the series `key` with its `attributes` and records `value` in it. */
  start(key: string, attributes: Attributes, value: number) {
    if (this.series.size >= MAX_SERIES) [key, attributes] = ["\0overflow", OVERFLOW];
    if (!this.series.has(key)) this.series.set(key, { attributes, start: hrTime(), counts: new Array<number>(this.spec.boundaries.length + 1).fill(0), count: 0, sum: 0, min: Infinity, max: -Infinity });
    this.record(key, value);
  }

  /** The histogram as OTLP metric data (cumulative: every series since it began); null while nothing was recorded. */
  collect(now: [number, number]): HistogramMetricData | null {
    if (!this.series.size) return null;
    const boundaries = [...this.spec.boundaries];
    const dataPoints: DataPoint<Histogram>[] = [];
    for (const s of this.series.values()) {
      dataPoints.push({ attributes: s.attributes, startTime: s.start, endTime: now, value: { buckets: { boundaries, counts: [...s.counts] }, count: s.count, sum: s.sum, min: s.min, max: s.max } });
    }
    const { name, description, unit, valueType = ValueType.DOUBLE } = this.spec;
    return { descriptor: { name, description, unit, valueType }, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.HISTOGRAM, dataPoints };
  }
}

/** Hands a scope's InPlaceHistograms to the SDK's metric reader at each collection. */
class HistogramProducer implements MetricProducer {
  constructor(
    private readonly scope: string,
    private readonly histograms: InPlaceHistogram[],
  ) {}

  async collect(): Promise<CollectionResult> {
    const now = hrTime();
    const metrics = this.histograms.map((h) => h.collect(now)).filter((m): m is HistogramMetricData => m !== null);
    // The reader puts these under its provider's resource; this one is not read.
    return { resourceMetrics: { resource: emptyResource(), scopeMetrics: metrics.length ? [{ scope: { name: this.scope }, metrics }] : [] }, errors: [] };
  }
}

/**
 * The one way Kule's processes set up OpenTelemetry metrics: `histograms` (and any instrument
 * made from the provider's meters) exported every `intervalMs` over OTLP/HTTP (protobuf unless
 * `protocol` or OTEL_EXPORTER_OTLP_PROTOCOL says JSON; or to a given exporter: tests), off the
 * request's path.
 */
export function meterProvider(opts: { url?: string; protocol?: OtlpProtocol; exporter?: PushMetricExporter; serviceName: string; scope: string; intervalMs: number; histograms: InPlaceHistogram[] }): MeterProvider {
  const exporter = opts.exporter ?? otlpMetricExporter(opts.url, opts.protocol);
  return new MeterProvider({
    resource: resourceFromAttributes({ "service.name": opts.serviceName }),
    readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: opts.intervalMs, exportTimeoutMillis: Math.min(30_000, opts.intervalMs), metricProducers: [new HistogramProducer(opts.scope, opts.histograms)] })],
  });
}
