import type { ApiResponse } from './api';

export interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  links?: { self?: string };
}

/** A request the command needed was refused; the message carries the service's own error. */
export class Refused extends Error {}

/** The response when its status is `status`; otherwise the service's first error, as a Refused. */
export function expectStatus(res: ApiResponse, status: number, what: string): ApiResponse {
  if (res.status === status) return res;
  const first = (res.body as { errors?: { code: string; detail?: string }[] } | null)?.errors?.[0];
  throw new Refused(`${what}: ${res.status} ${first ? `${first.code}: ${first.detail ?? ''}` : JSON.stringify(res.body)}`);
}

export const one = (res: ApiResponse) => (res.body as { data: Resource }).data;
export const many = (res: ApiResponse) => (res.body as { data: Resource[] }).data;
