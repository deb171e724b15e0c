import { panelsFor } from "./endpoint-panels.ts";
import type { EngineMetrics } from "./exporters/engines.ts";
import type { Locale } from "../shared/i18n/locales.ts";
import { translatorFor } from "../shared/i18n/translator.ts";

/**
 * A Grafana dashboard (schema 39, Grafana 10/11) of the endpoint page's panels, for teams that
 * already run Grafana. The PromQL is the app's own, built with `$endpoint` in place of the slug,
 * so one dashboard serves every endpoint through its variable; `$__rate_interval` replaces the
 * app's rate window.
 */
export function grafanaDashboard(opts: { endpointSlug: string; endpointName: string; metrics: EngineMetrics; datasourceUid?: string; locale?: Locale }) {
  // Titles in the language of whoever downloads it, from the messages the app's charts use.
  const t = translatorFor(opts.locale ?? "en");
  const datasource = { type: "prometheus", uid: opts.datasourceUid ?? "${DS_PROMETHEUS}" };
  const panels = panelsFor(opts.metrics).map((p, i) => ({
    id: i + 1,
    type: "timeseries",
    title: t(`metrics.chart.endpoint.${p.id}`),
    datasource,
    gridPos: { h: 8, w: 12, x: (i % 2) * 12, y: Math.floor(i / 2) * 8 },
    fieldConfig: { defaults: { unit: p.grafanaUnit, custom: { spanNulls: false } }, overrides: [] },
    options: { tooltip: { mode: "multi" }, legend: { displayMode: "list", placement: "bottom" } },
    targets: p.targets.map((t, j) => ({ refId: String.fromCharCode(65 + j), datasource, expr: t.query("$endpoint", "$__rate_interval"), legendFormat: t.legend, range: true })),
  }));
  return {
    __inputs: opts.datasourceUid ? [] : [{ name: "DS_PROMETHEUS", label: "Prometheus", type: "datasource", pluginId: "prometheus", pluginName: "Prometheus" }],
    title: `Kule endpoint: ${opts.endpointName}`,
    uid: `kule-endpoint`,
    tags: ["kule"],
    schemaVersion: 39,
    time: { from: "now-1h", to: "now" },
    refresh: "5s",
    templating: {
      list: [
        {
          name: "endpoint",
          label: "Endpoint",
          type: "query",
          datasource,
          query: { query: "label_values(kule_gateway_requests_total, endpoint)", refId: "endpoint" },
          current: { text: opts.endpointSlug, value: opts.endpointSlug },
          refresh: 2,
        },
      ],
    },
    panels,
  };
}
