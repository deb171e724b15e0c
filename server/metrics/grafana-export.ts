import type { PrismaClient } from "../db/generated/client.ts";
import { NotFoundError } from "../errors.ts";
import { grafanaDashboard } from "./grafana.ts";
import { metricsOf } from "./exporters/engines.ts";
import type { Locale } from "../shared/i18n/locales.ts";

/** The Grafana dashboard for one endpoint, with a file name for the download. */
export async function endpointGrafanaDashboard({ db, locale }: { db: PrismaClient; locale?: Locale }, input: { endpointId: string }) {
  const e = await db.endpoint.findUnique({ where: { id: input.endpointId }, select: { slug: true, name: true, engine: true } });
  if (!e) throw new NotFoundError("Endpoint");
  return { fileName: `kule-${e.slug}-grafana.json`, dashboard: grafanaDashboard({ endpointSlug: e.slug, endpointName: e.name, metrics: metricsOf(e.engine), locale }) };
}
