import { handlers } from "@/lib/auth/nextauth";
import { withAuthPagePolicy } from "@/lib/http/page-security";

export const GET = withAuthPagePolicy(handlers.GET);
export const POST = withAuthPagePolicy(handlers.POST);
