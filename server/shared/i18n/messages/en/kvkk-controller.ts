/** The tenant's own KVKK record: its registration, the agreement, and the retention it sets. */
export const kvkkController = {
  registrationTitle: "Registration and agreement",
  verbis: "VERBIS registration number (Art. 16)",
  agreement: "Processing agreement with the platform (Art. 12(2))",
  signedOn: "signed {date}",
  notRecorded: "not recorded yet: ask your operator to record it",
  retentionTitle: "How long your call log is kept",
  inForce: "Your calls' records are kept {days, plural, one {# day} other {# days}}, then destroyed by {method}.",
  days: "Days to keep (empty: the platform's period)",
  range: "at most {max} days, the platform's period",
  rangeWithMin: "between {min} days (Law 5651) and {max} days (the platform's period)",
  rangeSpecial: "at most {max} days: your calls carry special categories of personal data (KVKK Art. 6)",
  specialEndpoints: "Calls to {endpoints} (special categories of personal data, KVKK Art. 6) are kept at most {days} days, whatever you set here.",
  method: "Then",
  save: "Save retention",
  saved: "Retention saved: the next destruction run follows it",
};
