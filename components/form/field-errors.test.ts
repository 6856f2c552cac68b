import { describe, expect, it } from 'vitest';
import { fieldErrors } from './field-errors';

describe('fieldErrors', () => {
  it('puts each detail beside the field it names, nested paths included, and leaves no form alert when every one is placed', () => {
    const failure = {
      code: 'bad_request',
      message: 'Invalid input: url: Only http and https URLs can receive webhooks (and 2 more)',
      details: [
        { path: 'url', message: 'Only http and https URLs can receive webhooks' },
        { path: 'events[0]', message: 'Invalid option' },
        { path: 'events', message: 'Choose at least one event' },
      ],
    };
    expect(fieldErrors(failure, ['url', 'events'])).toEqual({
      byField: { url: 'Only http and https URLs can receive webhooks', events: 'Invalid option; Choose at least one event' },
      rest: null,
    });
  });

  it('keeps the message for the form when a detail names no field of the form, or there are no details', () => {
    const stray = { code: 'bad_request', message: 'Invalid input: secret: not allowed', details: [{ path: 'secret', message: 'not allowed' }] };
    expect(fieldErrors(stray, ['url'])).toEqual({ byField: {}, rest: 'Invalid input: secret: not allowed' });
    expect(fieldErrors({ code: 'conflict', message: 'A webhook for this URL exists' }, ['url'])).toEqual({ byField: {}, rest: 'A webhook for this URL exists' });
    // "urls" is not under "url".
    expect(fieldErrors({ code: 'x', message: 'm', details: [{ path: 'urls', message: 'no' }] }, ['url']).byField).toEqual({});
  });

  it('says nothing when nothing failed', () => {
    expect(fieldErrors(null, ['url'])).toEqual({ byField: {}, rest: null });
  });
});
