import type { Locale } from "./locales.ts";
import type { Messages } from "./messages/en/index.ts";

// use-intl checks every `t("key")` against the English messages at compile time.
declare module "use-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
