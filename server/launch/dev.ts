import { runMain } from './main';
import { serve } from './serve';

runMain('development', () => serve('dev'));
