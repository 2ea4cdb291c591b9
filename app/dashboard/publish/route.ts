import { postPublishForm } from "@/lib/app/publish-form";

export const POST = postPublishForm;
