import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const trpc = {
  fixFields: "Lütfen aşağıda işaretli alanları düzeltin.",
  somethingWrong: "Bir şeyler ters gitti.",
} satisfies Translation<Messages["trpc"]>;
