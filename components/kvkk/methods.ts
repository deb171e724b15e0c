/** How the UI names each destruction method, with the Regulation's article (2017 Regulation on Erasure, Destruction or Anonymisation). */
export const METHOD_LABEL = {
  delete: "erasure (Art. 8)",
  anonymize: "anonymisation (Art. 10): request id replaced, times to the hour, IP, key and subject removed",
} as const;
