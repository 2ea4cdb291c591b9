import { handlers } from "@/lib/auth/nextauth";
import { withBoundedForm } from "@/lib/auth/form-body";
import { withAuthPagePolicy } from "@/lib/http/page-security";

export const GET = withAuthPagePolicy(handlers.GET);
export const POST = withAuthPagePolicy(withBoundedForm(handlers.POST));
