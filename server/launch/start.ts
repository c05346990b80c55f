import { serve } from './serve';
import { loadEnvFiles } from './load-env';

loadEnvFiles('production');

process.exitCode = await serve('start');
