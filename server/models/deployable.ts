import type { DbTx } from "../db/client.ts";
import { InvalidInputError } from "../errors.ts";

/**
 * The one check before a model version is put behind an endpoint or started on a GPU: it exists,
 * belongs to the endpoint's model, and neither it nor its model is retired. `field` is the input
 * field the error names.
 */
export async function deployableVersion(tx: DbTx, modelVersionId: string, model: { id: string; name: string }, field = "modelVersionId") {
  const version = await tx.modelVersion.findUnique({ where: { id: modelVersionId }, include: { model: { select: { retiredAt: true } } } });
  if (!version || version.modelId !== model.id) throw new InvalidInputError(field, `choose a version of ${model.name}`);
  if (version.model.retiredAt) throw new InvalidInputError(field, `${model.name} was retired: add a new model instead`);
  if (version.retiredAt) throw new InvalidInputError(field, `version ${version.version} of ${model.name} was retired: choose another version`);
  return version;
}
