import { z } from "zod";
import { id } from "../schemas/common.ts";

/** Alertmanager's webhook body (version 4), as far as Kule reads it. */
export const alertmanagerWebhookBody = z.object({
  version: z.string(),
  status: z.enum(["firing", "resolved"]),
  receiver: z.string(),
  alerts: z
    .array(
      z.object({
        status: z.enum(["firing", "resolved"]),
        labels: z.record(z.string(), z.string()),
        annotations: z.record(z.string(), z.string()).default({}),
        startsAt: z.iso.datetime({ offset: true }),
        endsAt: z.string(),
        generatorURL: z.string().default(""),
        fingerprint: z.string().min(1),
      }),
    )
    .max(1000, "at most 1000 alerts per delivery"),
});
export type AlertmanagerWebhookBody = z.infer<typeof alertmanagerWebhookBody>;

export const SEVERITIES = ["page", "ticket", "warning"] as const;

const httpUrl = z.url({ protocol: /^https?$/, error: "an http(s) URL" });
const endpointSlugs = z.array(z.string().trim().min(1).max(100)).max(100).default([]);
const severities = z.array(z.enum(SEVERITIES)).default([]);
const name = z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lowercase letters, digits and dashes, e.g. oncall-pager");

export const webhookSettings = z.object({ url: httpUrl });
export const slackSettings = z.object({ url: httpUrl, channel: z.string().trim().regex(/^#?[a-z0-9._-]{1,80}$/, "a channel such as #kule-alerts").nullish() });
/** A host:port; e-mail through that SMTP server, with a login when it needs one. */
export const emailSettings = z.object({
  to: z.email("an e-mail address"),
  from: z.email("an e-mail address"),
  // Checked by amtool with the whole config (it names what is wrong, e.g. a missing port).
  smarthost: z.string().trim().min(1, "host:port of the SMTP server, e.g. smtp.example.com:587").max(255),
  username: z.string().max(200).nullish(),
  password: z.string().max(500).nullish(),
  requireTls: z.boolean().default(true),
});

export const receiverInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("webhook"), name, settings: webhookSettings, endpointSlugs, severities }),
  z.object({ kind: z.literal("slack"), name, settings: slackSettings, endpointSlugs, severities }),
  z.object({ kind: z.literal("email"), name, settings: emailSettings, endpointSlugs, severities }),
]);
export type ReceiverInput = z.infer<typeof receiverInput>;

/** The same fields, for a receiver that exists, with the revision the operator's form was based on. */
export const updateReceiverInput = receiverInput.and(z.object({ id, expectedRevision: z.number().int() }));

export const receiverIdInput = z.object({ id });

export const listAlertsInput = z.object({
  endpointId: id.optional(),
  status: z.enum(["firing", "resolved"]).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export type ListAlertsInput = z.infer<typeof listAlertsInput>;

/** A maintenance window: alerts of an endpoint (or all) are silenced until `endsAt`. */
export const createSilenceInput = z
  .object({
    endpointSlug: z.string().trim().min(1).max(100).nullish(),
    alertName: z.string().trim().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an alert name such as KuleSloBurnFast").nullish(),
    minutes: z.number().int().min(1, "at least 1 minute").max(10_080, "at most a week (10080 minutes)"),
    comment: z.string().trim().min(3, "say why, e.g. 'driver upgrade'").max(500),
  })
  .refine((s) => s.endpointSlug || s.alertName, { message: "name an endpoint or an alert to silence", path: ["endpointSlug"] });
export type CreateSilenceInput = z.infer<typeof createSilenceInput>;

export const expireSilenceInput = z.object({ silenceId: z.string().uuid("an Alertmanager silence id") });
