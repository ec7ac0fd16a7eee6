// Where people read a message: the server-rendered thread page, anchored at a reply.
export const threadUrl = (baseUrl: string, threadId: string): string => `${baseUrl}/threads/${threadId}`;

export const postUrl = (baseUrl: string, p: { id: string; thread_id: string }): string =>
  p.id === p.thread_id ? threadUrl(baseUrl, p.thread_id) : `${threadUrl(baseUrl, p.thread_id)}#${p.id}`;
