import { serve } from './serve';
import { loadEnvFiles } from './load-env';

loadEnvFiles('development');

process.exitCode = await serve('dev');
