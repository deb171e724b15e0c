/** KVKK Art. 11(1): the data subject's rights, in the application form's order (their names: messages kvkk.rights). */
export const RIGHTS = ["learn_whether_processed", "request_information", "learn_purpose", "know_recipients", "rectification", "erasure", "notify_recipients", "object_automated_result", "compensation"] as const;
export type Right = (typeof RIGHTS)[number];

/** How an application may arrive (the Communiqué on Application to the Data Controller, Art. 5; names: kvkk.channels). */
export const CHANNELS = ["written", "kep", "e_signature", "registered_email", "application_form"] as const;
export type Channel = (typeof CHANNELS)[number];
