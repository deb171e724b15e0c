/** KVKK Art. 11(1): the data subject's rights, as the application form names them. */
export const RIGHTS = {
  learn_whether_processed: "(a) learn whether their data is processed",
  request_information: "(b) request information on the processing",
  learn_purpose: "(c) learn the purpose and whether data is used for it",
  know_recipients: "(ç) know the third parties data is transferred to, in Turkey or abroad",
  rectification: "(d) rectification of incomplete or inaccurate data",
  erasure: "(e) erasure or destruction (Art. 7)",
  notify_recipients: "(f) notification of (d) and (e) to the recipients",
  object_automated_result: "(g) object to a result against them from automated analysis",
  compensation: "(ğ) compensation for damage from unlawful processing",
} as const;

/** How an application may arrive (the Communiqué on Application to the Data Controller, Art. 5). */
export const CHANNELS = {
  written: "in writing",
  kep: "registered electronic mail (KEP)",
  e_signature: "secure e-signature or mobile signature",
  registered_email: "the e-mail address on file with the controller",
  application_form: "the controller's application form",
} as const;
