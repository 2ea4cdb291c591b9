import { withApi } from "@/lib/rest/with-api";
import { signUploadEndpoint } from "@/lib/uploads/endpoints";
import { signUpload } from "@/lib/uploads/sign-upload";

export const POST = withApi(signUploadEndpoint, ({ principal, body }) => signUpload(principal.userId, body));
