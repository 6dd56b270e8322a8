import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/main/config.js';

describe('security settings of sign-up, e-mail and stored deliveries', () => {
  it('offers dashboard sign-up in sandbox mode and not in production mode unless told', () => {
    expect(loadConfig({}).dashboardSignUp).toBe(true);
    expect(loadConfig({ LEDGERLINK_MODE: 'production' }).dashboardSignUp).toBe(false);
    expect(loadConfig({}, { mode: 'production' }).dashboardSignUp).toBe(false);
    expect(loadConfig({ LEDGERLINK_MODE: 'production', LEDGERLINK_DASHBOARD_SIGNUP: 'on' }).dashboardSignUp).toBe(true);
    expect(loadConfig({ LEDGERLINK_DASHBOARD_SIGNUP: 'false' }).dashboardSignUp).toBe(false);
  });

  it('lets the serve flag --dashboard-signup win over the environment', () => {
    expect(loadConfig({ LEDGERLINK_DASHBOARD_SIGNUP: 'on' }, { 'dashboard-signup': 'off' }).dashboardSignUp).toBe(false);
    expect(loadConfig({ LEDGERLINK_MODE: 'production' }, { 'dashboard-signup': 'true' }).dashboardSignUp).toBe(true);
  });

  it('keeps Test Drive e-mail local, allows 100 e-mails an hour and keeps finished deliveries 30 days by default', () => {
    expect(loadConfig({})).toMatchObject({ testDriveSmtp: false, emailLimitPerHour: 100, deliveryRetentionSeconds: 30 * 86_400 });
    expect(loadConfig({ LEDGERLINK_TESTDRIVE_SMTP: '1', LEDGERLINK_EMAIL_LIMIT_PER_HOUR: '5', LEDGERLINK_DELIVERY_RETENTION_DAYS: '7' })).toMatchObject({
      testDriveSmtp: true,
      emailLimitPerHour: 5,
      deliveryRetentionSeconds: 7 * 86_400,
    });
  });

  it.each([
    [{ LEDGERLINK_DASHBOARD_SIGNUP: 'maybe' }, /LEDGERLINK_DASHBOARD_SIGNUP/],
    [{ LEDGERLINK_TESTDRIVE_SMTP: 'sometimes' }, /LEDGERLINK_TESTDRIVE_SMTP/],
    [{ LEDGERLINK_EMAIL_LIMIT_PER_HOUR: '0' }, /LEDGERLINK_EMAIL_LIMIT_PER_HOUR/],
    [{ LEDGERLINK_DELIVERY_RETENTION_DAYS: '0' }, /LEDGERLINK_DELIVERY_RETENTION_DAYS/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
