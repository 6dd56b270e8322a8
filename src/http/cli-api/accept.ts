/** Whether an Accept header allows JSON: absent or empty, or a range application/json, application/* or *\/* with q above 0. */
export function acceptsJson(accept: string | undefined): boolean {
  if (!accept?.trim()) return true;
  return accept.split(',').some((part) => {
    const [range = '', ...params] = part.split(';');
    const type = range.trim().toLowerCase();
    if (type !== 'application/json' && type !== 'application/*' && type !== '*/*') return false;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
