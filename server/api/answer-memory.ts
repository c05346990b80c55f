/**
 * Room in the process's heap for the answer a request is building: `reserve`
 * resolves once `textBytes` more of the answer's text (descriptions, comments) may
 * be held, and keeps them held until the answer has been written out; it throws
 * 503 when no room came in time, and 413 when one request's answers together
 * would take more than the whole budget (an MCP batch of large pages). The HTTP
 * edge gives every request one (server/http/exchange.ts).
 */
export interface AnswerMemory {
  reserve(textBytes: number): Promise<void>;
}
