import { ModelFormat, ModelTask, Precision, ServingEngine } from "../db/generated/enums.ts";

/** What a model can be and how it is served: the forms' choices, in the schema's order. */
export const MODEL_TASKS = Object.values(ModelTask);
export const MODEL_FORMATS = Object.values(ModelFormat);
export const PRECISIONS = Object.values(Precision);
export const SERVING_ENGINES = Object.values(ServingEngine);
