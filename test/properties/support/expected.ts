/** What a call's arguments should put on the wire, read from the arguments themselves. */

function fields(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? { ...value } : {};
}

/** The headers a call's options ask for, as they should arrive: trimmed. */
export function expectedHeaders(options: unknown): Record<string, string> {
  const given = fields(options).headers;
  const pairs = given instanceof Headers || Array.isArray(given) ? [...given] : Object.entries(fields(given));
  // fromEntries defines each name as an own field, `__proto__` included.
  return Object.fromEntries(
    (pairs as [string, unknown][]).map(([name, value]) => [
      name,
      String(value).replace(/^[\t ]+|[\t ]+$/g, ''),
    ]),
  );
}

/** The query of a listPets call. */
export function expectedQuery(params: unknown): Record<string, string> {
  const { limit, status } = fields(params);
  return {
    ...(limit === undefined ? {} : { limit: String(limit) }),
    ...(status === undefined ? {} : { status: String(status) }),
  };
}

/** The JSON body of a createPet call: its fields, without those left undefined. */
export function expectedBody(pet: unknown): unknown {
  return JSON.parse(JSON.stringify(fields(pet)));
}
