/** RFC 9457 problem details, the body of every error response. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: string[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
