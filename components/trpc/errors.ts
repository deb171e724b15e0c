import { TRPCClientError } from "@trpc/client";
import { trpc as ENGLISH } from "@/server/shared/i18n/messages/en/trpc";

export type FieldErrors = Record<string, string[] | undefined>;

/** The words these helpers add of their own (messages trpc): a component passes its language's (useErrorText), else English. */
export type ErrorTexts = typeof ENGLISH;

/** The per-field messages a procedure's zod schema (or domain check) returned, for forms. */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (!(error instanceof TRPCClientError)) return {};
  return ((error.data as { fieldErrors?: FieldErrors } | undefined)?.fieldErrors ?? {}) as FieldErrors;
}

/** Every message of an error in one line: its fields' messages, else the message for the whole form. */
export function errorText(err: unknown, texts: ErrorTexts = ENGLISH): string {
  const fields = Object.values(fieldErrorsOf(err)).flat().filter(Boolean);
  return fields.length ? fields.join(" ") : (formErrorOf(err, texts) ?? "");
}

/** A message for the form as a whole, when the error is not about one field. */
export function formErrorOf(error: unknown, texts: ErrorTexts = ENGLISH): string | null {
  if (!error) return null;
  const fields = fieldErrorsOf(error);
  if (Object.keys(fields).length > 0) return texts.fixFields;
  return error instanceof Error ? error.message : texts.somethingWrong;
}
