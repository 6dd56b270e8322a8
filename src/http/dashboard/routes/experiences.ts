import Type from 'typebox';
import { listExperiences, saveExperience } from '../../../modules/connect/experiences.service.js';
import { epochSeconds } from '../../../platform/clock.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { ExperienceBody, ExperienceList, SavedExperience } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/** GET /dashboard/api/experiences: the partner's Connect experiences, `default` first. */
export function getExperiences(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/experiences', {
    schema: { hide: true, summary: 'Connect experiences', response: dashboardResponses(ExperienceList) },
    handler: async (request) => ({ experiences: await listExperiences(runtime.database.kysely, request.dashboard.partnerId) }),
  });
}

/** PUT /dashboard/api/experiences/:name: creates or replaces an experience (application name, logo URL, colour). */
export function putExperience(app: App, runtime: Runtime): void {
  app.put('/dashboard/api/experiences/:name', {
    schema: {
      hide: true,
      summary: 'Save a Connect experience',
      params: Type.Object({ name: Type.String({ maxLength: 64 }) }),
      body: ExperienceBody,
      response: dashboardResponses(SavedExperience),
    },
    handler: async (request) => {
      const { appName, primaryColor } = request.body;
      const logoUrl = request.body.logoUrl?.trim() ? request.body.logoUrl.trim() : null;
      const experience = { name: request.params.name, appName, logoUrl, primaryColor };
      await saveExperience(runtime.database.kysely, request.dashboard.partnerId, experience, epochSeconds(runtime.clock));
      return { experience: (await listExperiences(runtime.database.kysely, request.dashboard.partnerId)).find((x) => x.name === experience.name) };
    },
  });
}
