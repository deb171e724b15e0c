import { Worker, type WorkerOptions } from "node:worker_threads";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/**
 * A worker thread running a TypeScript module. On Node 20 a worker does not inherit the loader
 * hooks that run TypeScript in its parent (under `tsx`, `node --import tsx` or vitest alike), so
 * the thread starts with no loader flags and registers tsx's own before importing the module.
 */
export function typeScriptWorker(module: URL, opts: Omit<WorkerOptions, "eval" | "execArgv"> = {}): Worker {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(boot, { ...opts, eval: true, execArgv: [] });
}
