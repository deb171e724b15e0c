"use client";

import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf, formErrorOf } from "@/components/trpc/errors";
import { Empty, Field, Loading } from "@/components/ui/field";
import { PageHead, FormActions } from "@/components/ui/page-head";
import { useToast } from "@/components/ui/toast";
import { formatDateTime } from "@/components/ui/format";

const TASKS = ["llm", "vision", "embedding", "classifier", "speech"] as const;

export function ModelsPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const models = useQuery(trpc.model.list.queryOptions());
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHead
        title="Models"
        action={canWrite && !creating && (
            <button className="primary" onClick={() => setCreating(true)}>
              New model
            </button>
          )}
      >
        What the cluster can serve: each model and its versions.
      </PageHead>
      {creating && <CreateModelForm onDone={() => setCreating(false)} />}
      <div className="panel">
        {models.isPending ? (
          <Loading what="models" />
        ) : !models.data?.length ? (
          <Empty title="No models yet">{canWrite ? "Register one with “New model”, then add its first version." : "An operator registers models here."}</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Task</th>
                <th>Versions</th>
                <th>Endpoints</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {models.data.map((m) => (
                <tr key={m.id}>
                  <td>
                    <Link href={`/models/${m.id}`}>{m.name}</Link>
                    {m.description && <div className="muted">{m.description}</div>}
                  </td>
                  <td>
                    <span className="badge">{m.task}</span>
                  </td>
                  <td>{m.versions.map((v) => v.version).join(", ") || <span className="muted">none yet</span>}</td>
                  <td>{m._count.endpoints}</td>
                  <td>{formatDateTime(m.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </>
  );
}

function CreateModelForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState("");
  const [task, setTask] = useState<(typeof TASKS)[number]>("llm");
  const [description, setDescription] = useState("");
  const create = useMutation(
    trpc.model.create.mutationOptions({
      meta: { handlesErrors: true },
      onSuccess: async (m) => {
        await qc.invalidateQueries({ queryKey: trpc.model.list.queryKey() });
        toast.success(`Model ${m.name} created`);
        onDone();
      },
    }),
  );
  const errors = fieldErrorsOf(create.error);
  return (
    <div className="panel">
      <h2>New model</h2>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ name, task, description });
        }}
      >
        {create.error && <div className="form-error">{formErrorOf(create.error)}</div>}
        <div className="form-row">
          <Field id="model-name" label="Name" hint="Lowercase, like llama-3.1-8b-instruct" errors={errors.name}>
            <input id="model-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
          </Field>
          <Field id="model-task" label="Task" errors={errors.task}>
            <select id="model-task" value={task} onChange={(e) => setTask(e.target.value as (typeof TASKS)[number])}>
              {TASKS.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </Field>
        </div>
        <Field id="model-description" label="Description" errors={errors.description}>
          <textarea id="model-description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <FormActions submit="Create model" pending={create.isPending} onCancel={onDone} />
      </form>
    </div>
  );
}
