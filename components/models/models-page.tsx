"use client";

import Link from "next/link";
import { useState } from "react";
import { useTranslations } from "use-intl";
import { useFormat } from "@/components/i18n/use-format";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { fieldErrorsOf } from "@/components/trpc/errors";
import { Empty, Field } from "@/components/ui/field";
import { PANEL_QUERY, QueryState } from "@/components/ui/query-state";
import { PageHead, FormActions } from "@/components/ui/page-head";
import { MODEL_TASKS } from "@/server/shared/catalog";
import { FormPanel, useSaveOptions } from "@/components/ui/form-panel";

export function ModelsPage({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const models = useQuery(trpc.model.list.queryOptions(undefined, PANEL_QUERY));
  const [creating, setCreating] = useState(false);
  const t = useTranslations("models.list");
  const tt = useTranslations("models.task");
  const fmt = useFormat();
  return (
    <>
      <PageHead
        title={t("title")}
        action={
          canWrite &&
          !creating && (
            <button className="primary" onClick={() => setCreating(true)}>
              {t("newModel")}
            </button>
          )
        }
      >
        {t("intro")}
      </PageHead>
      {creating && <CreateModelForm onDone={() => setCreating(false)} />}
      <div className="panel">
        <QueryState
          query={models}
          what={t("what")}
          empty={<Empty title={t("emptyTitle")}>{canWrite ? t("emptyWrite") : t("emptyRead")}</Empty>}
        >
          {(data) => (
            <table>
              <thead>
                <tr>
                  <th>{t("colName")}</th>
                  <th>{t("colTask")}</th>
                  <th>{t("colVersions")}</th>
                  <th>{t("colEndpoints")}</th>
                  <th>{t("colCreated")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((m) => (
                  <tr key={m.id}>
                    <td>
                      <Link href={`/models/${m.id}`}>{m.name}</Link> {m.retiredAt && <span className="badge badge-danger">{t("retired")}</span>}
                      {m.description && <div className="muted">{m.description}</div>}
                    </td>
                    <td>
                      <span className="badge">{tt(m.task)}</span>
                    </td>
                    <td>{m.versions.map((v) => v.version).join(", ") || <span className="muted">{t("noneYet")}</span>}</td>
                    <td>{fmt.number(m._count.endpoints)}</td>
                    <td>{fmt.dateTime(m.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </div>
    </>
  );
}

function CreateModelForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const saved = useSaveOptions();
  const [name, setName] = useState("");
  const [task, setTask] = useState<(typeof MODEL_TASKS)[number]>("llm");
  const [description, setDescription] = useState("");
  const t = useTranslations("models.create");
  const tt = useTranslations("models.task");
  const create = useMutation(trpc.model.create.mutationOptions(saved({ refresh: trpc.model.list.queryKey(), toast: (m) => t("created", { name: m.name }), then: onDone })));
  const errors = fieldErrorsOf(create.error);
  return (
    <FormPanel
      title={t("title")}
      error={create.error}
      onSubmit={() => {
        create.mutate({ name, task, description });
      }}
    >
      <div className="form-row">
        <Field id="model-name" label={t("name")} hint={t("nameHint")} errors={errors.name}>
          <input id="model-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} />
        </Field>
        <Field id="model-task" label={t("task")} errors={errors.task}>
          <select id="model-task" value={task} onChange={(e) => setTask(e.target.value as (typeof MODEL_TASKS)[number])}>
            {MODEL_TASKS.map((x) => (
              <option key={x} value={x}>
                {tt(x)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field id="model-description" label={t("description")} errors={errors.description}>
        <textarea id="model-description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <FormActions submit={t("submit")} pending={create.isPending} onCancel={onDone} />
    </FormPanel>
  );
}
