import webVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...webVitals,
  ...nextTs,
  {
    ignores: ["node_modules/**", ".next/**", ".data/**", "server/db/generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    rules: {
      // Config is read through server/env.ts only.
      "no-restricted-syntax": ["error", { selector: "MemberExpression[object.name='process'][property.name='env']", message: "Read configuration through server/env.ts." }],
    },
  },
  {
    // The browser never imports server code: components take server modules' types only.
    files: ["components/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "(^@/|/)server/(?!shared/)", message: "Client code may import only types from server/ (values from server/shared/).", allowTypeImports: true }] },
      ],
    },
  },
  {
    files: ["server/env.ts", "instrumentation.ts", "scripts/**", "e2e/**", "tests/**", "*.config.ts", "*.config.mjs", "bench/**", "prisma/**"],
    rules: { "no-restricted-syntax": "off" },
  },
];

export default config;
