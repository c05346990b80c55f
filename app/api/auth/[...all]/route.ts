import { handleAuthRequest } from '@/server/auth/session';

export const dynamic = 'force-dynamic';

export { handleAuthRequest as GET, handleAuthRequest as POST };
