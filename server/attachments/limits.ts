import { MAX_ATTACHMENTS_PER_TASK } from '../schemas/attachment';

export { MAX_ATTACHMENTS_PER_TASK };

/** The answer to a file over the limit, multipart or direct; the API lists it in its document (server/api/messages.ts). */
export const fileTooLarge = (limitBytes: number) => `File too large: the limit is ${limitBytes / (1024 * 1024)} MB (${limitBytes} bytes)`;

export const TOO_MANY_ATTACHMENTS = `Task already has ${MAX_ATTACHMENTS_PER_TASK} attachments, the most a task may have`;
