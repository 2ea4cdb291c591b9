"""
Builds test/fakes/ytdlp/fixtures/*.info.json: what `yt-dlp -J --skip-download --write-subs --write-auto-subs`
prints for one item of each platform. No network: each platform's extractor is fed synthetic platform data
at the lowest level that is practical, and everything above it (the extractor's own parsing where noted,
YoutubeDL's processing, sanitising and the -J printing) is the installed yt-dlp's real code, run through
its real command line entry point (yt_dlp.main).

    .venv/bin/python test/fakes/ytdlp/make-fixtures.py   # after scripts/install-yt-dlp.sh

Subtitle URLs use the placeholder origin https://ytdlp-fixtures.invalid (paths shaped like each
platform's CDN paths); tests rewrite that origin to their local fake server.
"""

import contextlib
import io
import json
import os
import random
import sys

# yt-dlp picks a random browser User-Agent for http_headers when it is imported: seed first.
random.seed(20260819)

import yt_dlp  # noqa: E402
from yt_dlp.extractor import common, facebook, instagram, tiktok, twitter, vimeo, xiaohongshu  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'fixtures')
SUBS = 'https://ytdlp-fixtures.invalid'

# Fixed "now" so that regenerating gives the same files (yt-dlp stamps `epoch` into every info dict).
EPOCH = 1795000000


def run(url):
    """Runs the real CLI and returns what it printed on stdout (the -J document)."""
    out = io.StringIO()
    argv = ['--ignore-config', '--no-plugin-dirs', '--use-extractors', 'default,-generic', '--no-playlist',
            '--no-update', '--color', 'never', '--skip-download', '--write-subs', '--write-auto-subs',
            '-J', '--', url]
    with contextlib.redirect_stdout(out):
        try:
            yt_dlp.main(argv)
        except SystemExit as e:
            if e.code not in (0, None):
                raise RuntimeError(f'yt-dlp exited with {e.code} for {url}')
    info = json.loads(out.getvalue())
    info['epoch'] = EPOCH
    return info


def save(name, info):
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, f'{name}.info.json')
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(info, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write('\n')
    print(f'wrote {os.path.relpath(path)}', file=sys.stderr)


# ---------------------------------------------------------------------------------------------------
# X (twitter.py, TwitterIE): a tweet as the GraphQL API returns it after _graphql_to_legacy, and the
# video's HLS master playlist. The real _real_extract and _extract_variant_formats run; the master
# playlist goes through the real _parse_m3u8_formats_and_subtitles, which is where X's subtitles come
# from (an EXT-X-MEDIA TYPE=SUBTITLES rendition: ext "vtt", protocol "m3u8_native", no "name").
# ---------------------------------------------------------------------------------------------------

X_ID = '1790000000000000001'
X_MEDIA_ID = '1790000000000000002'
X_MASTER = f'https://video.twimg.com/ext_tw_video/{X_MEDIA_ID}/pu/pl/Zb3kXQ1aPq0rT9mA.m3u8?variant_version=1&tag=12'
X_MASTER_DOC = f'''#EXTM3U
#EXT-X-VERSION:6
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MEDIA:NAME="English",TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="{SUBS}/x/ext_tw_video/{X_MEDIA_ID}/pu/pl/subs/en/Zb3kXQ1aPq0rT9mA.m3u8"
#EXT-X-MEDIA:NAME="Audio",TYPE=AUDIO,GROUP-ID="audio-128000",AUTOSELECT=YES,URI="/ext_tw_video/{X_MEDIA_ID}/pu/pl/mp4a/128000/aBcD.m3u8"
#EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=1063587,BANDWIDTH=1464496,RESOLUTION=480x852,CODECS="mp4a.40.2,avc1.4D401F",SUBTITLES="subs",AUDIO="audio-128000"
/ext_tw_video/{X_MEDIA_ID}/pu/pl/avc1/480x852/eFgH.m3u8
#EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=2063587,BANDWIDTH=2464496,RESOLUTION=720x1280,CODECS="mp4a.40.2,avc1.640020",SUBTITLES="subs",AUDIO="audio-128000"
/ext_tw_video/{X_MEDIA_ID}/pu/pl/avc1/720x1280/iJkL.m3u8
'''
X_STATUS = {
    'id_str': X_ID,
    'full_text': 'Three things we learned building a transcript API \U0001F9F5 https://t.co/AbCdEfGhIj',
    'created_at': 'Tue May 14 16:20:00 +0000 2024',
    'user': {'name': 'Verbatim Demo', 'screen_name': 'verbatim_demo', 'id_str': '1500000000000000000'},
    'favorite_count': 120, 'retweet_count': 14, 'reply_count': 9, 'view_count': '40210',
    'possibly_sensitive': False,
    'entities': {'hashtags': [], 'urls': []},
    'extended_entities': {'media': [{
        'id_str': X_MEDIA_ID,
        'type': 'video',
        'media_url_https': f'https://pbs.twimg.com/ext_tw_video_thumb/{X_MEDIA_ID}/pu/img/Qw3rTy.jpg',
        'sizes': {'small': {'w': 383, 'h': 680}, 'large': {'w': 720, 'h': 1280}},
        'original_info': {'width': 720, 'height': 1280},
        'video_info': {
            'aspect_ratio': [9, 16],
            'duration_millis': 47347,
            'variants': [
                {'content_type': 'application/x-mpegURL', 'url': X_MASTER},
                {'bitrate': 632000, 'content_type': 'video/mp4',
                 'url': f'https://video.twimg.com/ext_tw_video/{X_MEDIA_ID}/pu/vid/avc1/320x568/MnOp.mp4?tag=12'},
                {'bitrate': 2176000, 'content_type': 'video/mp4',
                 'url': f'https://video.twimg.com/ext_tw_video/{X_MEDIA_ID}/pu/vid/avc1/720x1280/QrSt.mp4?tag=12'},
            ],
        },
    }]},
}


def make_x():
    def fake_m3u8(self, m3u8_url, video_id, *args, **kwargs):
        assert m3u8_url == X_MASTER
        return self._parse_m3u8_formats_and_subtitles(X_MASTER_DOC, m3u8_url, *args, video_id=video_id, **kwargs)

    twitter.TwitterIE._extract_status = lambda self, twid: dict(X_STATUS)
    twitter.TwitterIE._extract_m3u8_formats_and_subtitles = fake_m3u8
    save('x', run(f'https://x.com/i/status/{X_ID}'))


# ---------------------------------------------------------------------------------------------------
# TikTok (tiktok.py, TikTokIE): the webpage's itemStruct. The real _real_extract, _parse_aweme_video_web
# and _get_subtitles run: captions come from video.subtitleInfos, keyed by LanguageCodeName ("eng-US",
# "cmn-Hans-CN"), ext from Format (webvtt → vtt, creator_caption → json), no "name"; all under
# `subtitles` although TikTok's are ASR/machine translations.
# ---------------------------------------------------------------------------------------------------

TT_ID = '7350000000000000001'


def tt_caption(lang_id, code, fmt, source, n):
    return {
        'LanguageID': lang_id, 'LanguageCodeName': code, 'Format': fmt, 'Source': source, 'Version': '4',
        'UrlExpire': '1795086400', 'Size': '1523', 'VideoSubtitleID': 0,
        'Url': f'{SUBS}/tiktok/video/tos/useast2a/tos-useast2a-v-0068/o{n}AbCdEfGhIjKlMnOp/?a=1988&bti=ODszNWYuMDE6&ch=0'
               f'&cr=3&dr=0&er=0&lr=all&net=0&cd=0%7C0%7C0%7C&br=3020&bt=1510&ds=4&ft=4fUEKMvt8Zmo0&mime_type=video_mp4&qs=13'
               f'&rc=aGk0aDU1Ojc2OzQ8aDNpM0Bpam1uNXk5cmVsczMzZjczM0BhLi0uXy80XmIxLmBjMy5iYSNtMWQzMmQ0Ll9gLS1kMWNzcw%3D%3D'
               f'&l=202405141620004A1B2C3D4E5F6G7H8I9J&btag=e00088000',
    }


TT_ITEM = {
    'id': TT_ID,
    'desc': 'How we turn any video link into a clean transcript #developer #api',
    'createTime': '1715703600',
    'author': {'id': '6800000000000000001', 'uniqueId': 'verbatim.demo', 'nickname': 'Verbatim',
               'secUid': 'MS4wLjABAAAAv3rb4t1mD3m0S3cU1dExAmPlE_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789'},
    'music': {'title': 'original sound - verbatim.demo', 'authorName': 'Verbatim', 'duration': 62},
    'stats': {'playCount': 10400, 'diggCount': 812, 'shareCount': 33, 'commentCount': 41, 'collectCount': 97},
    'video': {
        'id': TT_ID, 'duration': 62, 'width': 576, 'height': 1024, 'ratio': '540p',
        'cover': 'https://p16-sign-va.tiktokcdn.com/obj/tos-maliva-p-0068/oAbCdEf~tplv-dmt-logom:tos.image',
        'playAddr': 'https://v16-webapp-prime.tiktok.com/video/tos/useast2a/tos-useast2a-ve-0068c001/oPlAy/?a=1988&br=2172&bt=1086',
        'subtitleInfos': [
            tt_caption('2', 'eng-US', 'webvtt', 'ASR', 1),
            tt_caption('2', 'eng-US', 'creator_caption', 'CC', 2),
            tt_caption('4', 'cmn-Hans-CN', 'webvtt', 'MT', 3),
            tt_caption('5', 'spa-ES', 'webvtt', 'MT', 4),
        ],
    },
}


def make_tiktok():
    tiktok.TikTokIE._extract_web_data_and_status = lambda self, url, video_id, fatal=True: (json.loads(json.dumps(TT_ITEM)), 0)
    save('tiktok', run(f'https://www.tiktok.com/@/video/{TT_ID}'))


# ---------------------------------------------------------------------------------------------------
# Facebook (facebook.py, FacebookIE): the page is a maze of data-sjs JSON, so _real_extract is replaced
# by the result its parse_graphql_video + extract_metadata + merge_dicts would give for one video node;
# the caption part below is the extractor's loop, line for line (locale keys "en_US", name
# "<localized_language> (<localized_country>)", no ext: yt-dlp fills it from the .srt URL).
# ---------------------------------------------------------------------------------------------------

FB_ID = '1234567890123456'
FB_VIDEO = {
    'id': FB_ID, 'videoId': FB_ID, 'is_video_broadcast': False,
    'playable_duration_in_ms': 95480, 'publish_time': 1715703600, 'name': None,
    'video_available_captions_locales': [
        {'locale': 'en_US', 'localized_language': 'English', 'localized_country': 'United States',
         'localized_creation_method': None,
         'captions_url': f'{SUBS}/facebook/v/t39.8562-6/441000000_1000000000000001_2000000000000000001_n.srt'
                         '?_nc_cat=100&ccb=1-7&_nc_sid=5caa6f&_nc_ohc=AbCdEfGhIjKlMnOp&_nc_ht=scontent-iad3-1.xx&oh=00_AfAbCdEf&oe=66A1B2C3'},
        {'locale': 'es_LA', 'localized_language': 'Spanish', 'localized_country': None,
         'localized_creation_method': 'Auto-generated',
         'captions_url': f'{SUBS}/facebook/v/t39.8562-6/441000001_1000000000000002_2000000000000000002_n.srt'
                         '?_nc_cat=104&ccb=1-7&_nc_sid=5caa6f&_nc_ohc=QrStUvWxYz012345&_nc_ht=scontent-iad3-1.xx&oh=00_AfQrStUv&oe=66A1B2C4'},
    ],
}


def fb_captions(video):
    """facebook.py parse_graphql_video, the caption loop."""
    from yt_dlp.utils import format_field, traverse_obj, url_or_none
    automatic_captions, subtitles = {}, {}
    is_broadcast = traverse_obj(video, ('is_video_broadcast', {bool}))
    for caption in traverse_obj(video, (
        'video_available_captions_locales',
        {lambda x: sorted(x, key=lambda c: c['locale'])},
        lambda _, v: url_or_none(v['captions_url']),
    )):
        lang = caption.get('localized_language') or 'und'
        subs = {
            'url': caption['captions_url'],
            'name': format_field(caption, 'localized_country', f'{lang} (%s)', default=lang),
        }
        if caption.get('localized_creation_method') or is_broadcast:
            automatic_captions.setdefault(caption['locale'], []).append(subs)
        else:
            subtitles.setdefault(caption['locale'], []).append(subs)
    return automatic_captions, subtitles


def make_facebook():
    def real_extract(self, url):
        automatic_captions, subtitles = fb_captions(FB_VIDEO)
        description = 'Behind the scenes: transcribing a whole conference in an afternoon.'
        return {
            # extract_metadata(webpage)
            'title': 'Behind the scenes: transcribing a whole conference in an afternoon. | By Verbatim',
            'description': description,
            'uploader': 'Verbatim',
            'uploader_id': '100064000000001',
            'timestamp': 1715703600,
            'thumbnail': 'https://scontent-iad3-1.xx.fbcdn.net/v/t15.5256-10/440000000_1_n.jpg?stp=dst-jpg_s960x960&_nc_cat=1',
            'view_count': 5321,
            # parse_graphql_video(video)
            'id': FB_ID,
            'formats': [
                {'format_id': 'sd', 'quality': -3, 'url': 'https://video-iad3-1.xx.fbcdn.net/o1/v/t2/f2/m69/AQOsd.mp4?efg=1&_nc_ht=video-iad3-1.xx'},
                {'format_id': 'hd', 'quality': -2, 'url': 'https://video-iad3-1.xx.fbcdn.net/o1/v/t2/f2/m69/AQOhd.mp4?efg=1&_nc_ht=video-iad3-1.xx'},
            ],
            'duration': 95.48,
            'automatic_captions': automatic_captions,
            'subtitles': subtitles,
        }

    facebook.FacebookIE._real_extract = real_extract
    save('facebook', run(f'https://www.facebook.com/watch/?v={FB_ID}'))


# ---------------------------------------------------------------------------------------------------
# Instagram (instagram.py, InstagramIE): the post as the logged-out GraphQL query returns it
# (xig_polaris_media.if_not_gated_logged_out). The real _extract_product runs. Instagram's extractor
# never produces subtitles or automatic_captions.
# ---------------------------------------------------------------------------------------------------

IG_CODE = 'C6xYzAbCdEf'


def make_instagram():
    pk = instagram._id_to_pk(IG_CODE)
    product = {
        'pk': str(pk), 'id': f'{pk}_4200000001', 'code': IG_CODE, 'media_type': 2, 'taken_at': 1715703600,
        'user': {'pk': '4200000001', 'username': 'verbatim.demo', 'full_name': 'Verbatim'},
        'caption': {'text': 'Paste a link, get the words. #transcripts'},
        'like_count': 312, 'comment_count': 18, 'view_count': None,
        'video_duration': 33.366,
        'video_versions': [
            {'id': '1052712345678901v', 'type': 101, 'width': 720, 'height': 1280,
             'url': 'https://scontent-iad3-1.cdninstagram.com/o1/v/t16/f2/m86/AQN720.mp4?efg=eyJ2ZW5jb2RlX3RhZyI6In0&_nc_ht=scontent-iad3-1.cdninstagram.com'},
            {'id': '1052712345678902v', 'type': 102, 'width': 480, 'height': 854,
             'url': 'https://scontent-iad3-1.cdninstagram.com/o1/v/t16/f2/m86/AQN480.mp4?efg=eyJ2ZW5jb2RlX3RhZyI6In0&_nc_ht=scontent-iad3-1.cdninstagram.com'},
        ],
        'image_versions2': {'candidates': [
            {'width': 640, 'height': 1138, 'url': 'https://scontent-iad3-1.cdninstagram.com/v/t51.29350-15/440000000_1_n.jpg'},
        ]},
    }
    instagram.InstagramIE._real_initialize = lambda self: None
    instagram.InstagramIE._real_extract = lambda self, url: self._extract_product(
        json.loads(json.dumps(product)), video_id=IG_CODE, get_comments=False)
    save('instagram', run(f'https://www.instagram.com/p/{IG_CODE}/'))


# ---------------------------------------------------------------------------------------------------
# RedNote (xiaohongshu.py, XiaoHongShuIE): the note page with its window.__INITIAL_STATE__. The real
# _real_extract runs on it. The extractor never produces subtitles or automatic_captions.
# ---------------------------------------------------------------------------------------------------

XHS_ID = '6650f0a1000000001e00abcd'


def make_rednote():
    state = {'note': {'noteDetailMap': {XHS_ID: {'note': {
        'noteId': XHS_ID, 'type': 'video',
        'title': '三分钟做好会议纪要', 'desc': '把视频链接变成文字稿 #效率工具[话题]# #会议纪要[话题]#',
        'tagList': [{'id': '1', 'name': '效率工具', 'type': 'topic'}, {'id': '2', 'name': '会议纪要', 'type': 'topic'}],
        'user': {'userId': '5c31698d0000000007018a31', 'nickname': 'Verbatim'},
        'imageList': [{'width': 1080, 'height': 1440,
                       'urlDefault': 'https://sns-webpic-qc.xhscdn.com/202405141620/abcdef0123456789/spectrum/1040g0k0abc!nd_dft_wlteh_webp_3',
                       'urlPre': 'https://sns-webpic-qc.xhscdn.com/202405141620/abcdef0123456789/spectrum/1040g0k0abc!nd_prv_wlteh_webp_3'}],
        'video': {'media': {'stream': {
            'h264': [{'masterUrl': 'http://sns-video-bd.xhscdn.com/stream/1/110/259/01e650f0a1abcdef0103700190a1b2c3_259.mp4',
                      'backupUrls': ['http://sns-bak-v1.xhscdn.com/stream/1/110/259/01e650f0a1abcdef0103700190a1b2c3_259.mp4'],
                      'width': 1080, 'height': 1920, 'fps': 30, 'videoCodec': 'h264', 'audioCodec': 'aac',
                      'avgBitrate': 1806122, 'videoBitrate': 1675000, 'audioBitrate': 128000, 'audioChannels': 2,
                      'size': 40921345, 'duration': 181266, 'qualityType': 'HD'}],
            'h265': [], 'av1': [],
        }}},
    }}}}}
    page = ('<html><head><meta name="og:title" content="三分钟做好会议纪要 - 小红书"></head><body>'
            f'<script>window.__INITIAL_STATE__={json.dumps(state, ensure_ascii=False)}</script></body></html>')
    xiaohongshu.XiaoHongShuIE._download_webpage = lambda self, url, video_id, *a, **k: page
    save('rednote', run(f'https://www.xiaohongshu.com/explore/{XHS_ID}'))


# ---------------------------------------------------------------------------------------------------
# Vimeo (vimeo.py, VimeoIE): the api.vimeo.com /videos/<id> document and its /texttracks list. The real
# _extract_from_api, _parse_api_response and _get_subtitles run: every text track lands in `subtitles`
# keyed by its language ("en", "en-x-autogen" for Vimeo's auto captions, "fr"), ext "vtt", name from
# display_language.
# ---------------------------------------------------------------------------------------------------

VIMEO_ID = '987654321'


def vimeo_track(tid, lang, display, name):
    return {
        'uri': f'/videos/{VIMEO_ID}/texttracks/{tid}', 'id': tid, 'active': True, 'type': 'captions',
        'language': lang, 'display_language': display, 'name': name,
        'link': f'{SUBS}/vimeo/captions/{tid}.vtt?expires=1795003600&sig=0123456789abcdef0123456789abcdef01234567'
                f'&download={name.replace(" ", "+")}.vtt&hls=1',
    }


VIMEO_VIDEO = {
    'uri': f'/videos/{VIMEO_ID}', 'name': 'Verbatim: from link to transcript', 'duration': 143,
    'description': 'A short walkthrough.', 'created_time': '2024-05-14T16:20:00+00:00',
    'release_time': '2024-05-14T16:20:00+00:00', 'license': None, 'stats': {'plays': 1204},
    'user': {'name': 'Verbatim', 'link': 'https://vimeo.com/verbatimdemo'},
    'pictures': {'sizes': [{'width': 640, 'height': 360, 'link': 'https://i.vimeocdn.com/video/1800000000-abc-d_640x360'}]},
    'play': {'progressive': [
        {'link': 'https://vod-progressive-ak.vimeocdn.com/exp=1795003600~acl=%2Fvimeo-prod-skyfire-std-us%2F01%2F1%2F1.mp4/720p.mp4',
         'type': 'video/mp4', 'codec': 'H264', 'width': 1280, 'height': 720, 'size': 48211234, 'fps': 30,
         'public_name': '720p', 'rendition': '720p', 'quality': 'hd'},
    ]},
    'metadata': {'connections': {'texttracks': {'total': 3}, 'comments': {'total': 2}, 'likes': {'total': 31}}},
}
VIMEO_TRACKS = {'total': 3, 'data': [
    vimeo_track('171000001', 'en', 'English', 'English'),
    vimeo_track('171000002', 'en-x-autogen', 'English (auto-generated)', 'English (auto-generated)'),
    vimeo_track('171000003', 'fr', 'French', 'Français'),
]}


def make_vimeo():
    def call_api(self, video_id, unlisted_hash=None, path=None, **kwargs):
        return json.loads(json.dumps(VIMEO_TRACKS if path == 'texttracks' else VIMEO_VIDEO))

    vimeo.VimeoIE._real_initialize = lambda self: None
    vimeo.VimeoIE._call_videos_api = call_api
    vimeo.VimeoIE._real_extract = lambda self, url: self._extract_from_api(self._match_id(url))
    save('vimeo', run(f'https://vimeo.com/{VIMEO_ID}'))


if __name__ == '__main__':
    # Deterministic `epoch`, and no network: any download that was not replaced above is a bug here.
    def no_network(self, *args, **kwargs):
        raise RuntimeError(f'make-fixtures: unexpected network request: {args[:1]}')
    common.InfoExtractor._request_webpage = no_network
    for make in (make_x, make_tiktok, make_facebook, make_instagram, make_rednote, make_vimeo):
        make()
