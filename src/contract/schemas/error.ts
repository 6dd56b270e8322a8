import Type from 'typebox';

/** The body of every error response, JSON `{code, message}` or XML `<error><code/><message/></error>`. */
export const ErrorBody = Type.Object(
  {
    code: Type.String({ description: 'Error code from the catalogue (docs/errors.md)', examples: ['10005'] }),
    message: Type.String({ description: 'What went wrong, in words', examples: ['Missing parameter (partnerId)'] }),
  },
  { $id: 'ErrorBody', xml: { name: 'error' }, description: 'An error' },
);
