/**
 * Institution operations answer under /institution/v2/... (the spelling most documentation uses) and also under
 * /institutions/v2/... (used by some examples); the second is described as its own operation, `...AltPath`.
 */
export function institutionPaths(path: string, operationId: string): Array<{ path: string; operationId: string }> {
  return [
    { path, operationId },
    { path: path.replace(/^\/institution\//, '/institutions/'), operationId: `${operationId}AltPath` },
  ];
}
