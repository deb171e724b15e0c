/**
 * KVKK documents Kule drafts or seeds, which are then stored or sent as written: breach notices to
 * a tenant (the controller), the answer to an erasure application, and the storage-and-destruction
 * policy's starting entries (the seed migration's text, which the page shows in its language until
 * an operator edits an entry). Each is drafted in a language the user picks.
 */
export const kvkkTexts = {
  breachNotice: {
    to: "To {tenant}, as data controller (Board decision 2019/10 and our processing agreement):",
    aware: "We, as your data processor, became aware on {awareAt} of a possible personal-data breach: {title}.",
    period: "It concerns the period {from} to {to}: {calls} of your calls, from {subjects} distinct end users you identified with the user field (others unidentified).",
    periodRange: "It concerns the period {from} to {to}: {calls} of your calls, from between {subjects} and {subjectsAtMost} distinct end users you identified with the user field (others unidentified). The identifiers were kept as one-way hashes under {versions} key versions in the period: one person has one per version, so whether two of them are the same person cannot be told.",
    data: "Data concerned: {categories}.",
    dataDefault: "Data concerned: call records (client IP, API key, times, token counts, the keyed hash of the user field); prompts and answers are not stored.",
    measures: "Measures: {measures}",
    measuresDefault: "Measures: under investigation; we will write again.",
    board: "As data controller, you notify the Board within 72 hours of becoming aware (Board decision 2019/10): by {due} if counted from our awareness. Contact: {contact}.",
    contactDefault: "the platform's data protection contact",
  },
  erasureAnswer: "Your data in this service's call log was {method, select, delete {erased} other {anonymised}}: {rows} record(s), destruction record {id}.",
  erasureHeld: "Your data in this service's call log cannot be erased now: it is kept under a legal hold, needed to establish, exercise or protect a right (a dispute, an investigation or an authority's request: KVKK Art. 5(2)(e)), and will be erased when the hold is released (Art. 13(3): this is the reason for the refusal).",
  erasureKept: "{unlinked} record(s) less than {days} days old keep only the traffic data Law 5651 requires to be kept for {days} days (times, client IP, the service called), no longer linked to your identifier{whole, plural, =0 {} other { ({whole} record(s) found by your IP address are kept whole)}}; they are destroyed by {until}.",
  /** The policy's starting entries, word for word as the seed migration (20261204145300_kvkk_policy) stores them. */
  policy: {
    call_log: {
      category: "Call log: client IP, API key, subject hash (HMAC of the user field), times, tokens",
      dataSubjects: "Tenants' end users and staff calling the API",
      purpose: "Billing, SLA evidence, abuse and security investigation, data subjects' requests",
      legalBasis: "KVKK Art. 5(2)(c) performance of the contract; Art. 5(2)(ç) legal obligation (Law 5651 where it applies); Art. 5(2)(f) legitimate interest (security)",
      periodReason: "Per tenant (the tenant's retention, else the platform default); never below the Law 5651 minimum when one is set",
      responsible: "Platform operator's data protection officer",
    },
    audit_ip: {
      category: "Audit events: the IP address of the staff member or tenant user who acted",
      dataSubjects: "Staff and tenant users",
      purpose: "Security: tracing who changed what from where",
      legalBasis: "KVKK Art. 5(2)(f) legitimate interest; Art. 12 security measures (access logs)",
      periodReason: "Two years covers the period in which misuse is usually found; the event itself (who, what, when) is kept, only the IP is erased",
      responsible: "Platform operator's security officer",
    },
    exports: {
      category: "Call-log export files and their jobs (manifests, filters)",
      dataSubjects: "Tenants' end users; staff who exported",
      purpose: "Handing data to a tenant, an auditor or a data subject",
      legalBasis: "KVKK Art. 5(2)(c), Art. 11 (the data subject's right to information)",
      periodReason: "An export is a copy made for one delivery; 30 days lets the recipient download it",
      responsible: "Platform operator's data protection officer",
    },
    subject_requests: {
      category: "Data subjects' applications: subject hash, channel, identity check, answer",
      dataSubjects: "Data subjects",
      purpose: "Answering applications under KVKK Art. 11 and 13, and proving the answer",
      legalBasis: "KVKK Art. 5(2)(ç) legal obligation; Art. 5(2)(e) establishing or defending a right",
      periodReason: "Three years after closing: the period in which a complaint to the Board or a claim is expected",
      responsible: "Platform operator's data protection officer",
    },
    destruction_records: {
      category: "Destruction records and runs",
      dataSubjects: "None directly (counts, hashes, who ran them)",
      purpose: "Proving destruction",
      legalBasis: "Regulation on Erasure, Destruction or Anonymisation Art. 7(3)",
      periodReason: "Kept at least 3 years (a trigger refuses an earlier delete); not destroyed by the periodic run",
      responsible: "Platform operator's data protection officer",
    },
    transfer_register: {
      category: "Register of transfers abroad: tenant, hour, region, count, safeguard",
      dataSubjects: "None (no personal data)",
      purpose: "Proving which transfers abroad happened under which safeguard (KVKK Art. 9)",
      legalBasis: "KVKK Art. 9; Art. 12 (accountability)",
      periodReason: "Holds no personal data; kept as long as the platform runs",
      responsible: "Platform operator's data protection officer",
    },
    gateway_journal: {
      category: "Gateway call journal (spool): call-log rows not yet written to the database",
      dataSubjects: "As the call log",
      purpose: "Losing no answered call when a gateway or the database fails",
      legalBasis: "As the call log",
      periodReason: "Kept only until its rows reach the database, then truncated by the gateway (seconds); the periodic run has nothing to destroy there",
      responsible: "Platform operator's operations team",
    },
  },
};
