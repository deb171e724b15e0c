/**
 * Column headers of the CSV files people open in a spreadsheet (the call log, the invoice). The
 * call log's English headers are its stable field names, the same as the JSONL fields and the
 * manifest's `columns`, which verifiers read instead of the header.
 */
export const exportFiles = {
  callLog: {
    requestId: "requestId",
    tenantId: "tenantId",
    apiKeyId: "apiKeyId",
    endpointId: "endpointId",
    versionId: "versionId",
    replica: "replica",
    region: "region",
    clientIp: "clientIp",
    startedAt: "startedAt",
    endedAt: "endedAt",
    ttftMs: "ttftMs",
    status: "status",
    errorClass: "errorClass",
    promptTokens: "promptTokens",
    completionTokens: "completionTokens",
    userHash: "userHash",
  },
  invoice: {
    tenant: "Tenant",
    month: "Month",
    endpoint: "Endpoint",
    model: "Model",
    requests: "Requests",
    inputTokens: "Input tokens",
    outputTokens: "Output tokens",
    amount: "Amount ({currency})",
    total: "Total",
  },
};
