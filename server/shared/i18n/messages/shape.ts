/**
 * A translation has exactly the English messages' keys, each a string: `satisfies
 * Translation<…>` in every tr/ file makes a missing, extra or misspelt key a type error, so no
 * page can show an untranslated key (and use-intl's typed keys, server/i18n/app-config.d.ts,
 * make a component's unknown key one too).
 */
export type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
