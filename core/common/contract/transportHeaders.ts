/** Header with which each browser-mode page identifies itself (a random id per page load). */
export const CLIENT_HEADER = 'x-aloud-client';
